/** Benchmarks of the plan subsystem (see bench/support.ts for the conventions). */
export const benchPlan = async (): Promise<void> => {}
