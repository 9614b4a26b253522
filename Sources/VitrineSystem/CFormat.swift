import Glibc

extension String {
    /// `arguments` laid out by the C library's `printf` `format` ("%.2f", "%02x"): what the
    /// libraries use for numbers in messages without linking Foundation.
    public init(cFormat format: String, _ arguments: any CVarArg...) {
        self = formatted(format, arguments)
    }
}

private func formatted(_ format: String, _ arguments: [any CVarArg]) -> String {
    let length = Int(withVaList(arguments) { vsnprintf(nil, 0, format, $0) })
    guard length > 0 else { return "" }
    return String(unsafeUninitializedCapacity: length + 1) { buffer in
        let written = withVaList(arguments) { list in
            buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, format, list) }
        }
        return min(Int(written), length)
    }
}
