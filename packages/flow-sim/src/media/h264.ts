/**
 * A minimal H.264 (ISO/IEC 14496-10) encoder for the simulator's clips: Constrained Baseline,
 * CAVLC, one SPS and one PPS, progressive frames, no B frames.
 *
 * Why this shape: the smallest encoder that decodes everywhere and needs neither a transform nor
 * entropy-coding tables.
 * - Frame 0 is an IDR picture whose macroblocks are all I_PCM: the samples travel raw (8 bits each,
 *   4:2:0), so any picture is shown exactly, with no DCT, quantiser or coefficient tables.
 * - Every later frame is a P picture that copies the previous one displaced by a whole-pixel motion
 *   vector (the camera pan): P_L0_16x16 with cbp 0 where the prediction of the vector needs help,
 *   P_Skip everywhere else. A P frame costs a few hundred bytes, a clip one raw picture plus ~1 %.
 * - Integer, even luma displacements keep the chroma vector whole too, so the decoder only copies
 *   samples (clamped at the picture edge): frame i is frame 0 shifted by the pan so far, exactly,
 *   which is what the tests predict.
 * - pic_order_cnt_type 2 (output order = decode order) and max_num_reorder_frames 0 let a decoder
 *   show each frame as soon as it is decoded; deblocking is disabled in every slice (it would not
 *   change anything here: I_PCM has qP 0 and equal vectors give boundary strength 0).
 */

/** Big-endian bit writer with the Exp-Golomb codes of clause 9.1. */
export class BitWriter {
  #buf = new Uint8Array(256);
  #len = 0;
  #cur = 0;
  #bits = 0;

  /** `n` (0–32) bits of `value`, most significant first. */
  u(n: number, value: number): void {
    for (let i = n - 1; i >= 0; i -= 1) {
      this.#cur = (this.#cur << 1) | (Math.floor(value / 2 ** i) & 1);
      this.#bits += 1;
      if (this.#bits === 8) this.#flush();
    }
  }

  /** ue(v): unsigned Exp-Golomb. */
  ue(value: number): void {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`ue(v) of ${value}`);
    const code = value + 1;
    const length = Math.floor(Math.log2(code));
    this.u(length, 0);
    this.u(length + 1, code);
  }

  /** se(v): signed Exp-Golomb (k > 0 → 2k − 1, k ≤ 0 → −2k). */
  se(value: number): void {
    this.ue(value > 0 ? 2 * value - 1 : -2 * value);
  }

  get byteAligned(): boolean {
    return this.#bits === 0;
  }

  /** Zero bits up to the next byte boundary (pcm_alignment_zero_bit). */
  alignZero(): void {
    while (this.#bits !== 0) this.u(1, 0);
  }

  /** One whole byte; must be byte-aligned (pcm_sample_*). */
  byte(value: number): void {
    if (this.#bits !== 0) throw new Error('byte() off a byte boundary');
    this.#push(value);
  }

  /** rbsp_trailing_bits(): a stop bit, then zeros to the byte boundary. */
  trailing(): void {
    this.u(1, 1);
    this.alignZero();
  }

  bytes(): Uint8Array {
    if (this.#bits !== 0) throw new Error('bytes() before alignment');
    return this.#buf.subarray(0, this.#len);
  }

  #flush(): void {
    this.#push(this.#cur);
    this.#cur = 0;
    this.#bits = 0;
  }

  #push(value: number): void {
    if (this.#len === this.#buf.length) {
      const grown = new Uint8Array(this.#buf.length * 2);
      grown.set(this.#buf);
      this.#buf = grown;
    }
    this.#buf[this.#len] = value & 0xff;
    this.#len += 1;
  }
}

/** Inserts emulation_prevention_three_byte (0x03) wherever 0x0000 is followed by a byte ≤ 3 (7.4.1). */
export function escapeRbsp(rbsp: Uint8Array): Buffer {
  const out = Buffer.alloc(rbsp.length + Math.ceil(rbsp.length / 2) + 1);
  let o = 0;
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out[o++] = 3;
      zeros = 0;
    }
    out[o++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return out.subarray(0, o);
}

/** A NAL unit: the one-byte header (forbidden bit 0, nal_ref_idc, nal_unit_type) and the escaped RBSP. */
export function nalUnit(refIdc: number, type: number, rbsp: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([((refIdc & 3) << 5) | (type & 0x1f)]), escapeRbsp(rbsp)]);
}

/** A picture in 4:2:0 planes of the coded (macroblock-aligned) size, 8-bit, limited range. */
export interface Yuv420 {
  /** Coded size: multiples of 16. */
  width: number;
  height: number;
  y: Uint8Array;
  cb: Uint8Array;
  cr: Uint8Array;
}

export const PROFILE_BASELINE = 66;
/** constraint_set0_flag and constraint_set1_flag: Constrained Baseline (decodable by Main decoders too). */
export const CONSTRAINT_FLAGS = 0xc0;
export const LOG2_MAX_FRAME_NUM = 4;

interface LevelLimit {
  idc: number;
  maxMbps: number;
  maxFs: number;
  maxCpbKbit: number;
}

/** Table A-1 (the columns we check). */
const LEVELS: LevelLimit[] = [
  { idc: 10, maxMbps: 1485, maxFs: 99, maxCpbKbit: 175 },
  { idc: 11, maxMbps: 3000, maxFs: 396, maxCpbKbit: 500 },
  { idc: 12, maxMbps: 6000, maxFs: 396, maxCpbKbit: 1000 },
  { idc: 13, maxMbps: 11880, maxFs: 396, maxCpbKbit: 2000 },
  { idc: 21, maxMbps: 19800, maxFs: 792, maxCpbKbit: 4000 },
  { idc: 22, maxMbps: 20250, maxFs: 1620, maxCpbKbit: 4000 },
  { idc: 30, maxMbps: 40500, maxFs: 1620, maxCpbKbit: 10000 },
  { idc: 31, maxMbps: 108000, maxFs: 3600, maxCpbKbit: 14000 },
  { idc: 32, maxMbps: 216000, maxFs: 5120, maxCpbKbit: 20000 },
  { idc: 40, maxMbps: 245760, maxFs: 8192, maxCpbKbit: 25000 },
  { idc: 41, maxMbps: 245760, maxFs: 8192, maxCpbKbit: 62500 },
  { idc: 42, maxMbps: 522240, maxFs: 8704, maxCpbKbit: 62500 },
  { idc: 50, maxMbps: 589824, maxFs: 22080, maxCpbKbit: 135000 },
  { idc: 51, maxMbps: 983040, maxFs: 36864, maxCpbKbit: 240000 },
  { idc: 52, maxMbps: 2073600, maxFs: 36864, maxCpbKbit: 240000 },
];

/**
 * The lowest level whose frame size, macroblock rate, picture dimensions (√(8·MaxFS)) and coded
 * picture buffer hold the clip (the raw I_PCM picture is by far its largest access unit).
 */
export function levelFor(mbWidth: number, mbHeight: number, fps: number): number {
  const fs = mbWidth * mbHeight;
  const idrBits = fs * 384 * 8 + 2 * 8 * fs;
  const fit = LEVELS.find(
    (l) =>
      fs <= l.maxFs &&
      fs * fps <= l.maxMbps &&
      Math.max(mbWidth, mbHeight) ** 2 <= 8 * l.maxFs &&
      idrBits <= l.maxCpbKbit * 1000,
  );
  return (fit ?? LEVELS[LEVELS.length - 1] ?? { idc: 52 }).idc;
}

export interface StreamGeometry {
  /** Display size in pixels (cropped from the coded size). */
  width: number;
  height: number;
  fps: number;
}

function mbSize(geometry: StreamGeometry): { mbWidth: number; mbHeight: number } {
  return { mbWidth: Math.ceil(geometry.width / 16), mbHeight: Math.ceil(geometry.height / 16) };
}

/** seq_parameter_set_rbsp (7.3.2.1.1) with a VUI: BT.601 colour, the frame rate, no reordering. */
export function spsRbsp(geometry: StreamGeometry): Uint8Array {
  const { mbWidth, mbHeight } = mbSize(geometry);
  const w = new BitWriter();
  w.u(8, PROFILE_BASELINE);
  w.u(8, CONSTRAINT_FLAGS);
  w.u(8, levelFor(mbWidth, mbHeight, geometry.fps));
  w.ue(0); // seq_parameter_set_id
  w.ue(LOG2_MAX_FRAME_NUM - 4); // log2_max_frame_num_minus4
  w.ue(2); // pic_order_cnt_type: output order = decode order
  w.ue(1); // max_num_ref_frames
  w.u(1, 0); // gaps_in_frame_num_value_allowed_flag
  w.ue(mbWidth - 1);
  w.ue(mbHeight - 1); // pic_height_in_map_units_minus1
  w.u(1, 1); // frame_mbs_only_flag
  w.u(1, 1); // direct_8x8_inference_flag
  // Cropping (units of 2 luma samples in 4:2:0): the right/bottom padding of the last macroblocks.
  const cropRight = Math.floor((mbWidth * 16 - geometry.width) / 2);
  const cropBottom = Math.floor((mbHeight * 16 - geometry.height) / 2);
  const cropping = cropRight > 0 || cropBottom > 0;
  w.u(1, cropping ? 1 : 0);
  if (cropping) {
    w.ue(0);
    w.ue(cropRight);
    w.ue(0);
    w.ue(cropBottom);
  }
  w.u(1, 1); // vui_parameters_present_flag
  w.u(1, 0); // aspect_ratio_info_present_flag (square samples)
  w.u(1, 0); // overscan_info_present_flag
  w.u(1, 1); // video_signal_type_present_flag
  w.u(3, 5); // video_format: unspecified
  w.u(1, 0); // video_full_range_flag: limited range
  w.u(1, 1); // colour_description_present_flag
  w.u(8, 6); // colour_primaries: SMPTE 170M
  w.u(8, 6); // transfer_characteristics: SMPTE 170M
  w.u(8, 6); // matrix_coefficients: SMPTE 170M (BT.601)
  w.u(1, 0); // chroma_loc_info_present_flag
  w.u(1, 1); // timing_info_present_flag
  w.u(32, 1); // num_units_in_tick
  w.u(32, Math.round(geometry.fps * 2)); // time_scale (two ticks per frame)
  w.u(1, 1); // fixed_frame_rate_flag
  w.u(1, 0); // nal_hrd_parameters_present_flag
  w.u(1, 0); // vcl_hrd_parameters_present_flag
  w.u(1, 0); // pic_struct_present_flag
  w.u(1, 1); // bitstream_restriction_flag
  w.u(1, 1); // motion_vectors_over_pic_boundaries_flag
  w.ue(0); // max_bytes_per_pic_denom
  w.ue(0); // max_bits_per_mb_denom
  w.ue(15); // log2_max_mv_length_horizontal
  w.ue(15); // log2_max_mv_length_vertical
  w.ue(0); // max_num_reorder_frames
  w.ue(1); // max_dec_frame_buffering
  w.trailing();
  return w.bytes();
}

/** pic_parameter_set_rbsp (7.3.2.2): CAVLC, one slice group, one reference, deblocking control present. */
export function ppsRbsp(): Uint8Array {
  const w = new BitWriter();
  w.ue(0); // pic_parameter_set_id
  w.ue(0); // seq_parameter_set_id
  w.u(1, 0); // entropy_coding_mode_flag: CAVLC
  w.u(1, 0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0); // num_ref_idx_l0_default_active_minus1: no ref_idx in the macroblocks
  w.ue(0); // num_ref_idx_l1_default_active_minus1
  w.u(1, 0); // weighted_pred_flag
  w.u(2, 0); // weighted_bipred_idc
  w.se(0); // pic_init_qp_minus26
  w.se(0); // pic_init_qs_minus26
  w.se(0); // chroma_qp_index_offset
  w.u(1, 1); // deblocking_filter_control_present_flag
  w.u(1, 0); // constrained_intra_pred_flag
  w.u(1, 0); // redundant_pic_cnt_present_flag
  w.trailing();
  return w.bytes();
}

const SLICE_P = 5;
const SLICE_I = 7;

/** slice_header (7.3.3) for the one slice of a picture. */
function sliceHeader(w: BitWriter, idr: boolean, frameNum: number): void {
  w.ue(0); // first_mb_in_slice
  w.ue(idr ? SLICE_I : SLICE_P);
  w.ue(0); // pic_parameter_set_id
  w.u(LOG2_MAX_FRAME_NUM, frameNum % (1 << LOG2_MAX_FRAME_NUM));
  if (idr) {
    w.ue(0); // idr_pic_id
  } else {
    w.u(1, 0); // num_ref_idx_active_override_flag
    w.u(1, 0); // ref_pic_list_modification_flag_l0
  }
  // dec_ref_pic_marking (nal_ref_idc ≠ 0)
  if (idr) {
    w.u(1, 0); // no_output_of_prior_pics_flag
    w.u(1, 0); // long_term_reference_flag
  } else {
    w.u(1, 0); // adaptive_ref_pic_marking_mode_flag: sliding window
  }
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc: off
}

const I_PCM = 25;

/** The IDR access unit: every macroblock I_PCM (7.3.5: mb_type 25, alignment, 256 + 2×64 samples). */
export function idrSliceRbsp(picture: Yuv420): Uint8Array {
  const w = new BitWriter();
  sliceHeader(w, true, 0);
  const mbWidth = picture.width / 16;
  const mbHeight = picture.height / 16;
  const cw = picture.width / 2;
  for (let my = 0; my < mbHeight; my += 1) {
    for (let mx = 0; mx < mbWidth; mx += 1) {
      w.ue(I_PCM);
      w.alignZero();
      for (let y = 0; y < 16; y += 1) {
        const row = (my * 16 + y) * picture.width + mx * 16;
        for (let x = 0; x < 16; x += 1) w.byte(picture.y[row + x] ?? 16);
      }
      for (const plane of [picture.cb, picture.cr]) {
        for (let y = 0; y < 8; y += 1) {
          const row = (my * 8 + y) * cw + mx * 8;
          for (let x = 0; x < 8; x += 1) w.byte(plane[row + x] ?? 128);
        }
      }
    }
  }
  w.trailing();
  return w.bytes();
}

/**
 * A P picture that is the previous picture displaced by (`dx`, `dy`) whole luma pixels (even, so
 * the chroma vector is whole too): every macroblock predicts from the same vector (4·dx, 4·dy)
 * quarter samples.
 *
 * P_Skip infers a zero vector when neighbour A (left) or B (above) is unavailable (8.4.1.1), so
 * the first row and the first column are coded as P_L0_16x16 (mb_type 0) with mvd = vector − median
 * prediction (8.4.1.3): the vector itself for macroblock 0, zero for the rest (their available
 * neighbours already carry it). coded_block_pattern me(v) codeNum 0 is inter cbp 0: no residual,
 * no mb_qp_delta. Everything else is P_Skip, whose predicted vector is then the median of three
 * equal vectors. A zero displacement is a picture of skipped macroblocks only.
 */
export function pSliceRbsp(mbWidth: number, mbHeight: number, frameNum: number, dx: number, dy: number): Uint8Array {
  if (dx % 2 !== 0 || dy % 2 !== 0) throw new RangeError(`odd displacement ${dx},${dy}`);
  const w = new BitWriter();
  sliceHeader(w, false, frameNum);
  const total = mbWidth * mbHeight;
  if (dx === 0 && dy === 0) {
    w.ue(total); // mb_skip_run over the whole picture
    w.trailing();
    return w.bytes();
  }
  let pending = 0;
  for (let addr = 0; addr < total; addr += 1) {
    const x = addr % mbWidth;
    const y = Math.floor(addr / mbWidth);
    if (x !== 0 && y !== 0) {
      pending += 1;
      continue;
    }
    w.ue(pending); // mb_skip_run
    pending = 0;
    w.ue(0); // mb_type P_L0_16x16
    w.se(addr === 0 ? 4 * dx : 0); // mvd_l0 x
    w.se(addr === 0 ? 4 * dy : 0); // mvd_l0 y
    w.ue(0); // coded_block_pattern: inter codeNum 0 → 0
  }
  if (pending > 0) w.ue(pending);
  w.trailing();
  return w.bytes();
}

export interface EncodedStream {
  sps: Buffer;
  pps: Buffer;
  /** One access unit per frame, each its slice NAL unit (SPS and PPS travel out of band). */
  frames: Buffer[];
}

/**
 * Encodes a clip: `picture` as the IDR frame, then one P frame per entry of `steps`, each the
 * previous picture displaced by that step (whole, even luma pixels; the camera's move).
 */
export function encodeStream(
  geometry: StreamGeometry,
  picture: Yuv420,
  steps: readonly { x: number; y: number }[],
): EncodedStream {
  const { mbWidth, mbHeight } = mbSize(geometry);
  if (picture.width !== mbWidth * 16 || picture.height !== mbHeight * 16)
    throw new RangeError('picture is not the coded size');
  const frames = [nalUnit(3, 5, idrSliceRbsp(picture))];
  steps.forEach((step, i) => frames.push(nalUnit(2, 1, pSliceRbsp(mbWidth, mbHeight, i + 1, step.x, step.y))));
  return { sps: nalUnit(3, 7, spsRbsp(geometry)), pps: nalUnit(3, 8, ppsRbsp()), frames };
}
