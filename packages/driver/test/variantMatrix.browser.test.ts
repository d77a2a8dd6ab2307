// The variant matrix, part 1 of 2 (test/helpers/variantMatrix.ts: every switch's values, the
// driver's core journeys on each; the parts run side by side in the package's two workers).
import { runVariantMatrix } from './helpers/variantMatrix.js';

runVariantMatrix(0, 2);
