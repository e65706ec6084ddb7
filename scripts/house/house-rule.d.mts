// Types of house-rule.mjs (the import rule shared by test/architecture.test.ts and ESLint).
export interface Floor { floor: number; name: string; match: (path: string) => boolean }
export interface Edge { from: string; to: string; typeOnly: boolean; spec: string; names?: string[] }
export const FLOORS: readonly Floor[];
export function floorOf(path: string): Floor | undefined;
export function moduleOf(path: string): string;
export function topFolderOf(path: string): string;
export function edgeOf(srcDir: string, file: string, spec: string, typeOnly: boolean, names?: string[]): Edge;
export function importEdges(srcDir: string, files?: Record<string, string>): Edge[];
export function edgeViolations(e: Edge): string[];
export function violations(edges: readonly Edge[]): string[];
export function moduleCycles(edges: readonly Edge[], unit?: (path: string) => string): string[][];
export function fileCycles(edges: readonly Edge[]): string[][];
export function crossFamilyImports(edges: readonly Edge[]): string[];
