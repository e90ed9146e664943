/** Benchmarks of the gate subsystem (see bench/support.ts for the conventions). */
export const benchGate = async (): Promise<void> => {}
