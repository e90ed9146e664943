/**
 * `Ingest` of the public surface: capture a public URL into `research/sources/` (spec
 * plan-and-ingest.md, capture.md). `IngestLive` is the capture logic over the `CaptureStore`
 * port and a `WarcWriter`, `SafeHttp` (the network policy), a Lock and the work folder;
 * `IngestFolder` is it over the work folder's files (needs SafeHttp, a FileStore, a Lock and the
 * Workdir); `CaptureStoreFolder`/`CaptureStoreMemory` are the port's adapters. `SafeHttpLive` fetches from the network under the real policy (undici
 * and the HTML parser are loaded at the first fetch, not at import); `SafeHttpTest` is the same
 * code with a resolver and an address policy of your own (for tests on 127.0.0.1).
 */
export { type AddressPolicy, publicUnicastPolicy, type TargetError } from "../domain/DestinationPolicy.js"
export { CaptureRecord } from "../domain/IngestContent.js"
export {
  CompressedResponse,
  ConnectionFailed,
  CredentialsInUrl,
  DnsFailure,
  ForbiddenDestination,
  HttpStatus,
  type IngestError,
  IngestErrors,
  InvalidUrl,
  ResponseTooLarge,
  Timeout,
  TooManyRedirects,
  UnsupportedContent,
  UnsupportedScheme
} from "../domain/IngestErrors.js"
export { IngestDryRunOutput, IngestOutput } from "../domain/IngestOutput.js"
export { CaptureStoreFolder } from "../layers/folder/CaptureStoreFolder.js"
export { IngestFolder } from "../layers/folder/IngestFolder.js"
export { WarcWriterLive } from "../layers/folder/WarcWriter.js"
export { IngestLive } from "../layers/IngestLive.js"
export { CaptureStoreMemory } from "../layers/memory/CaptureStoreMemory.js"
export {
  type Answer,
  type ConnectEvent,
  type Resolver,
  type SafeHttpConfig,
  SafeHttpLive
} from "../layers/SafeHttpLive.js"
export { policyAllowing, SafeHttpTest, tableResolver } from "../layers/SafeHttpTest.js"
export {
  type CaptureError,
  type CaptureOptions,
  type CaptureResult,
  type DryRunResult,
  Ingest,
  type IngestShape,
  readCaptures
} from "../services/Ingest.js"
export {
  CaptureStore,
  type CaptureStoreError,
  type CaptureStoreShape,
  type RetainedContent,
  type RetainFile,
  WarcWriter,
  type WarcWriterShape
} from "../services/ports/CaptureStore.js"
export { type Checked, type Fetched, type FetchOptions, SafeHttp, type SafeHttpShape } from "../services/SafeHttp.js"
