/** Whether dist/ may run (see distState.js). */
export declare function distState(distUrl: URL): { fresh: boolean; reason: string };
