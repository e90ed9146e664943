/** Benchmarks of the journal subsystem (see bench/support.ts for the conventions). */
export const benchJournal = async (): Promise<void> => {}
