/** Demo step of the monitor subsystem. */
export const demoMonitor = async (_dir: string): Promise<void> => {}
