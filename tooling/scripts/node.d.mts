/** The workspace's supported Node (see node.mjs). */
export declare function supportedRange(): string;
export declare function pinnedVersions(): { pinned: string; secondLine: string };
export declare function provisionNode(version: string): string;
export declare function envWithNode(binary: string, env?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function ensureSupportedNode(): void;
export declare function secondLineNode(): { version: string; binary: string } | undefined;
