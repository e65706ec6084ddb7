// Writes docs/fiscal/rules-not-enforced.md from src/authority-sim/rules-not-enforced.ts.
import { writeFileSync } from 'node:fs';
import { rulesNotEnforcedDoc } from '../src/authority-sim/rules-not-enforced-doc.js';

writeFileSync('docs/fiscal/rules-not-enforced.md', rulesNotEnforcedDoc());
console.log('wrote docs/fiscal/rules-not-enforced.md');
