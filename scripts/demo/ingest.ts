/** Demo step of the ingest subsystem. */
export const demoIngest = async (_dir: string): Promise<void> => {}
