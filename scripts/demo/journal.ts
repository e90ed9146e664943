/** Demo step of the journal subsystem. */
export const demoJournal = async (_dir: string): Promise<void> => {}
