import CPixelKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which versions of the widest pixel loops run: `SpanBlitter`'s Swift loops work on eight
/// pixels as two 128-bit halves in the portable build (SSE2, any x86-64; NEON on arm64); on an
/// x86-64 processor with AVX2 the same loops run as 256-bit kernels (`CPixelKernels`), and the
/// blends and composites of whole rows and the bilinear runs as 512-bit ones where it also has
/// AVX-512 (F and BW), chosen here once. Every version gives the same pixels (tests compare them with each other
/// and with the scalar formula).
///
/// `VITRINE_PIXEL_KERNELS=portable` in the environment keeps the Swift loops and `avx2` the
/// 256-bit kernels alone, to compare or to rule the wider ones out; any other value leaves the
/// choice to the processor.
enum PixelKernels {
    private static let choice = getenv("VITRINE_PIXEL_KERNELS").map { String(cString: $0) }

    /// Whether the AVX2 kernels run.
    static let avx2: Bool = choice != "portable" && avx2Available

    /// Whether the AVX-512 kernels run (before the AVX2 ones, which finish their rows).
    static let avx512: Bool = avx2 && choice != "avx2" && avx512Available

    /// Whether this processor can run the AVX2 kernels, whatever `VITRINE_PIXEL_KERNELS` says.
    static var avx2Available: Bool { vitrine_pixels_have_avx2() != 0 }

    /// Whether it can run the AVX-512 kernels (and so the AVX2 ones), whatever it says.
    static var avx512Available: Bool { avx2Available && vitrine_pixels_have_avx512() != 0 }
}
