// The variant matrix, part 2 of 2 (test/helpers/variantMatrix.ts).
import { runVariantMatrix } from './helpers/variantMatrix.js';

runVariantMatrix(1, 2);
