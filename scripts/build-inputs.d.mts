// Types of build-inputs.mjs.
export interface BuildPart { stamp: string; output: string; folders: string[]; files: string[] }
export const SERVER_INPUTS: BuildPart;
export const DASHBOARD_INPUTS: BuildPart;
export function newestInput(root: string, part: BuildPart): number;
export function staleBecause(root: string, part: BuildPart): string | null;
