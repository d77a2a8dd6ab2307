import fs from 'node:fs';
import path from 'node:path';
import { renderConfigurationDoc } from '../src/settings/configurationDoc.js';

const target = path.resolve(import.meta.dirname, '../../../docs/CONFIGURATION.md');
fs.writeFileSync(target, renderConfigurationDoc());
process.stdout.write(`wrote ${target}\n`);
