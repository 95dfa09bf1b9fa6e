import Foundation
import InkwellTesting
import Testing

/// The recogniser and smoothing tests on real human strokes skip where the data set is missing. In CI it is
/// always provided, so there a missing file is a failure rather than a quiet skip.
@Suite struct SharedDataPresenceTests {
    @Test func theSharedDataSetsTheTestsReadAreThereInCI() {
        let missing = SharedData.missingInCI([DollarDataSet.path])
        #expect(
            missing.isEmpty,
            "CI=true, and the shared data is missing: \(missing.map { SharedData.url($0).path }); the tests that read it did not run"
        )
    }
}
