import CPixelKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which versions of the widest pixel loops run: `SpanBlitter`'s Swift loops work on eight
/// pixels as two 128-bit halves in the portable build (SSE2, any x86-64; NEON on arm64); on an
/// x86-64 processor with AVX2 the same loops run as 256-bit kernels (`CPixelKernels`), chosen
/// here once. Both give the same pixels (tests compare them with each other and with the
/// scalar formula).
enum PixelKernels {
    /// Whether the AVX2 kernels run: the processor has AVX2 and `VITRINE_PIXEL_KERNELS` is not
    /// `portable` (which keeps the portable loops, to compare or to rule the kernels out).
    static let avx2: Bool = {
        if let choice = getenv("VITRINE_PIXEL_KERNELS"), String(cString: choice) == "portable" { return false }
        return vitrine_pixels_have_avx2() != 0
    }()

    /// Whether this processor can run the AVX2 kernels, whatever `VITRINE_PIXEL_KERNELS` says.
    static var avx2Available: Bool { vitrine_pixels_have_avx2() != 0 }
}
