/** The published library packages (see packLibs.mjs), dependencies before dependants. */
export declare function publishedPackages(root?: string): Array<{ dir: string; pkg: Record<string, any> }>;
export declare function bareImports(code: string): string[];
export declare function undeclaredImports(dir: string, pkg: Record<string, any>): string[];
export declare function buildPackage(dir: string): void;
export declare function packLibs(outDir: string, options?: { build?: boolean }): string[];
