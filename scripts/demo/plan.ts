/** Demo step of the plan subsystem. */
export const demoPlan = async (_dir: string): Promise<void> => {}
