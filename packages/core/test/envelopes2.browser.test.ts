// Every failure switch ends in an honest envelope, part 2 of 2 (test/envelopeSwitches.ts).
import { runEnvelopes } from './envelopeSwitches.js';

runEnvelopes(1, 2);
