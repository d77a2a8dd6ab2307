// Every failure switch ends in an honest envelope, part 1 of 2 (test/envelopeSwitches.ts).
import { runEnvelopes } from './envelopeSwitches.js';

runEnvelopes(0, 2);
