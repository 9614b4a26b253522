import Foundation

// Built by scripts/fuzz.sh with `-sanitize=fuzzer,address -D FUZZING` and linked with
// libFuzzer's own main, which calls `LLVMFuzzerTestOneInput` for the target named by
// $VITRINE_FUZZ_TARGET. Built plainly, this is a replay tool: `vitrine-fuzz TARGET FILE…` runs
// saved inputs (a crash's reproducer, a corpus) through the same code.

#if FUZZING
    nonisolated(unsafe) private let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["VITRINE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("set VITRINE_FUZZ_TARGET to one of \(names)\n".utf8))
            exit(64)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#else
    @main
    struct Replay {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: vitrine-fuzz \(names) FILE…\n".utf8))
                exit(64)
            }
            for file in arguments.dropFirst() {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("\(file): cannot read")
                    exit(66)
                }
                target.run([UInt8](data))
                print("\(file): ok")
            }
        }
    }
#endif
