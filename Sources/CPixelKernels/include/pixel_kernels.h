// The renderer's widest pixel loops, for processors with 256-bit integer vectors (AVX2 on
// x86-64), chosen at run time: the portable build targets any x86-64 (SSE2), where Swift's
// SIMD8<UInt32> takes two 128-bit halves per step. Each kernel computes the same pixels as
// its Swift loop in VitrineGraphics/SpanBlitter.swift, eight at a time, and returns how many
// pixels it handled (a multiple of eight): the Swift loop finishes the rest. Tests compare
// every kernel with the portable loop and the scalar formula.
#ifndef VITRINE_PIXEL_KERNELS_H
#define VITRINE_PIXEL_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

/// 1 when the kernels below may run on this processor (x86-64 with AVX2 enabled by the OS),
/// else 0; on other architectures always 0 and the kernels handle nothing.
int vitrine_pixels_have_avx2(void);

/// `SpanBlitter.blendPixelsWide`: source pixels scaled by `factor` (0…255) source-over `dst`.
long vitrine_blend_pixels_avx2(uint32_t *dst, const uint32_t *src, long count, uint32_t factor);

/// `SpanBlitter.blendPixelsMaskedWide`: as above, each pixel's factor also times its mask byte.
long vitrine_blend_pixels_masked_avx2(
    uint32_t *dst, const uint32_t *src, long count, uint32_t factor, const uint8_t *mask);

/// `vitrine_blend_pixels_avx2` for a transparency layer's pixels (`SpanBlitter.composite`),
/// which it leaves transparent once read.
long vitrine_composite_pixels_avx2(uint32_t *dst, uint32_t *src, long count, uint32_t factor);

/// `SpanBlitter.composite(_:consuming:count:factor:over:)`: a transparency layer's pixels laid
/// over the opaque `underlay`, scaled by `factor`, source-over `dst`, and left transparent once
/// read; `scaled_underlay` is the underlay scaled by `factor` (`PixelMath.scale`).
long vitrine_composite_over_avx2(
    uint32_t *dst, uint32_t *src, long count, uint32_t factor, uint32_t underlay, uint32_t scaled_underlay);

/// `SpanBlitter.blendSolid`: a premultiplied colour scaled by each pixel's coverage byte,
/// source-over `dst`.
long vitrine_blend_solid_avx2(uint32_t *dst, const uint8_t *coverage, long count, uint32_t color);

/// `SpanBlitter.blendConstantWide`: `color + dst·inverse/255` per channel.
long vitrine_blend_constant_avx2(uint32_t *dst, long count, uint32_t color, uint32_t inverse);

/// Sweeps a group of eight rasterizer cells (and the carry in the ninth) into eight pixels of a
/// premultiplied colour, source-over, leaving the cells zero; returns the running winding after
/// them. The pixels `SpanBlitter.SolidBlender.group` gives for the same cells.
int32_t vitrine_sweep_group_solid_avx2(int32_t *cells, int32_t sum, uint32_t *dst, uint32_t color, int even_odd);

/// The same for a row's last group, of which only the first `count` (0…7) pixels are the row's:
/// the others are neither read nor written.
int32_t vitrine_sweep_last_group_solid_avx2(
    int32_t *cells, int32_t sum, uint32_t *dst, long count, uint32_t color, int even_odd);

/// The grouped sweep into a premultiplied colour (`Rasterizer.sweep(rows:rule:into:)` with
/// `SpanBlitter.SolidBlender`) of `rows` consecutive rows of rasterizer cells (`cell_stride`
/// cells and `words` mark words apart, `end` columns wide), the first of whose pixels is `row`
/// (`pixels_per_row` apart): each group of eight cells holding a written one as
/// `vitrine_sweep_group_solid_avx2` (`..._last_group_...` for a row's last), the columns
/// between as `SolidBlender.run` at the running winding's coverage (a constant blend through
/// the AVX-512 kernel first when `avx512`, as `SpanBlitter.blendConstant` does). The first
/// `prefetching_rows` rows prefetch the pixels `prefetch` ahead of each blend. Stops before the
/// first row with `events` or pixels computed exactly (`conflicted`), which it leaves untouched,
/// and returns how many rows it swept (`rows` when none has either). The cells and marks it
/// sweeps are left zero. Returns 0 where the kernels are missing.
long vitrine_sweep_rows_solid_avx2(
    int32_t *cells, long cell_stride, uint64_t *marks, long words, const bool *events, const bool *conflicted,
    long rows, long end, uint32_t *row, long pixels_per_row, long prefetching_rows, long prefetch, uint32_t color,
    int even_odd, int avx512);

/// `PixelMath.bilinearRun` with 32-bit lanes: bilinear samples of `pixels` (`width` texels a
/// row) at 16.16 positions stepped by (`du`, `dv`) from (`u`, `v`), written to `out`; every
/// position's texel to the right and below must be inside the image.
long vitrine_bilinear_run_avx2(
    const uint32_t *pixels, long width, int32_t u, int32_t v, int32_t du, int32_t dv, long count,
    uint32_t *out);
/// `count` runs of sixteen samples, `vitrine_bilinear_run_avx2` of each: run k from (u, v) =
/// (`runs[4k]`, `runs[4k + 1]`) stepped by (`runs[4k + 2]`, `runs[4k + 3]`), into `out + 16k`
/// (a perspective draw steps each run of its row by its own steps). Nothing where the kernels
/// are missing.
void vitrine_bilinear_runs16_avx2(const uint32_t *pixels, long width, const int32_t *runs, long count, uint32_t *out);

/// `ProjectiveImageSampler`'s chunks of sixteen samples of device row `y`, from column
/// `x + from` (a chunk's first, whose image position, 16.16 about texel centres, is `start`),
/// through `m` (device → image, nine entries row by row): each chunk's end found as the
/// sampler's `position` finds it (the same operations in the same order), its samples stepped
/// linearly from its start and given to `vitrine_bilinear_runs16_avx2` (`..._avx512` when
/// `avx512`) sixteen chunks at a time. Stops before the first chunk that is not whole (ends past
/// `count`), whose end is at or behind the eye, or whose samples are not all inside the image
/// (with the texel right and below); returns the column it stopped at and leaves that chunk's
/// start in `start`. Returns `from` where the kernels are missing.
long vitrine_projective_chunks_avx2(
    const uint32_t *pixels, long width, long height, const double *m, long x, long y, long from, long count,
    int64_t *start, uint32_t *out, int avx512);

/// `GradientSampler.fillAxial`'s row of `count` pixels (eight at a time; returns how many): the
/// pixel at k is table entry `(min(max(u + k·du, 0), top) + 32768) >> 16` with `thresholds[k & 3]`
/// (four 64-bit dither thresholds, one per channel) added before each 8.4 channel's four extra
/// bits are dropped.
long vitrine_gradient_axial_avx2(
    const uint64_t *table, int64_t u, int64_t du, int64_t top, const uint64_t *thresholds, long count,
    uint32_t *out);

/// One box pass of `GaussianBlur` down `columns` lanes (`GaussianBlur.blurColumns`'s values):
/// `input` holds positions `from_lower..<from_upper` (`columns` bytes apart; others count as
/// 0), the box of `size` starts `offset` from each output position, and the rounded means
/// ((sum + half)·multiplier24 >> 24, a box at most 256 wide) of positions
/// `to_lower..<to_upper` go to `output`; `sums` holds `columns` running sums. Nothing where the
/// kernels are missing.
void vitrine_box_pass_avx2(
    const uint8_t *input, long from_lower, long from_upper, uint8_t *output, long to_lower, long to_upper,
    long columns, long size, long offset, uint32_t half, uint32_t multiplier24, int32_t *sums);

/// 1 when the AVX-512 kernels below may run (x86-64 with AVX-512F and AVX-512BW), else 0.
/// They compute the pixels of the AVX2 kernels of the same names sixteen at a time and return
/// how many they handled (a multiple of sixteen): the AVX2 kernel and the Swift loop finish.
int vitrine_pixels_have_avx512(void);
long vitrine_blend_pixels_avx512(uint32_t *dst, const uint32_t *src, long count, uint32_t factor);
long vitrine_blend_pixels_masked_avx512(
    uint32_t *dst, const uint32_t *src, long count, uint32_t factor, const uint8_t *mask);
long vitrine_composite_pixels_avx512(uint32_t *dst, uint32_t *src, long count, uint32_t factor);
long vitrine_composite_over_avx512(
    uint32_t *dst, uint32_t *src, long count, uint32_t factor, uint32_t underlay, uint32_t scaled_underlay);
long vitrine_blend_solid_avx512(uint32_t *dst, const uint8_t *coverage, long count, uint32_t color);
long vitrine_blend_constant_avx512(uint32_t *dst, long count, uint32_t color, uint32_t inverse);
long vitrine_bilinear_run_avx512(
    const uint32_t *pixels, long width, int32_t u, int32_t v, int32_t du, int32_t dv, long count,
    uint32_t *out);
/// `count` runs of sixteen samples, `vitrine_bilinear_run_avx512` of each: run k from (u, v) =
/// (`runs[4k]`, `runs[4k + 1]`) stepped by (`runs[4k + 2]`, `runs[4k + 3]`), into `out + 16k`
/// (a perspective draw steps each run of its row by its own steps). Nothing where the kernels
/// are missing.
void vitrine_bilinear_runs16_avx512(
    const uint32_t *pixels, long width, const int32_t *runs, long count, uint32_t *out);

#endif
