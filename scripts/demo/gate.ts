/** Demo step of the gate subsystem. */
export const demoGate = async (_dir: string): Promise<void> => {}
