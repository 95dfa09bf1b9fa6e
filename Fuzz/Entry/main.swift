import Foundation
import InkwellFuzzing

// libFuzzer's driver, run on one of the targets chosen by INKWELL_FUZZ_TARGET; its options and folders
// come on the command line (`Scripts/fuzz.sh`). A failed check traps, so libFuzzer keeps the input that
// failed it (crash-<hash>) and reports it.

@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target under test: set once, before the driver starts calling back.
nonisolated(unsafe) var target = FuzzTarget.change

guard let chosen = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["INKWELL_FUZZ_TARGET"] ?? "") else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    FileHandle.standardError.write(Data("INKWELL_FUZZ_TARGET must be one of: \(names)\n".utf8))
    exit(2)
}
target = chosen
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    runDriver(&argc, &argv) { data, size in
        let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        if case .failed(let reason) = target.check(bytes) { fatalError("\(target.rawValue): \(reason)") }
        return 0
    }
)
