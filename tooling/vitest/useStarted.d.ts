/** Something a test file starts once and closes at the end. */
export interface Closable {
  close(): Promise<void>;
}
/** Starts `start()` in the file's beforeAll, closes it in afterAll; the stand-in forwards to the started value. */
export declare function useStarted<T extends Closable>(what: string, start: () => Promise<T>, timeoutMs?: number): T;
