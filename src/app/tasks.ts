/** Resolves in a task of its own: before it, the browser may paint and answer input. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
