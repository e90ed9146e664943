/** Bytes as a Node Buffer without copying: the same memory, viewed through Buffer's methods. */
export const toBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
