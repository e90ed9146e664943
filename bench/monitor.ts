/** Benchmarks of the monitor subsystem (see bench/support.ts for the conventions). */
export const benchMonitor = async (): Promise<void> => {}
