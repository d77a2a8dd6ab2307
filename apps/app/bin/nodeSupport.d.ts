/** Which Node gflow runs on (see nodeSupport.js). */
export interface NodeSupport {
  readonly version: string;
  readonly range: string;
  readonly supported: boolean;
}
export declare function satisfiesNodeRange(version: string, range: string): boolean;
export declare function supportedNodeRange(): string;
export declare function nodeSupport(version?: string, range?: string): NodeSupport;
export declare function unsupportedNodeMessage(support: { version: string; range: string }): string;
