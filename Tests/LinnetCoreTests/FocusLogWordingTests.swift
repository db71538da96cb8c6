@testable import DesktopClients
@testable import LinnetCore
import Testing

/// Issue 17: the log said "ducked from 0.8 to 0.16000000000000003".
@Suite struct FocusLogWordingTests {
    @Test func duckedVolumesAreLoggedAsPeopleReadThem() {
        #expect(0.8 * 0.2 != 0.16)
        #expect(FocusWorker.Touch.ducked(original: 0.8, applied: 0.8 * 0.2).description == "ducked from 0.8 to 0.16")
        #expect(FocusWorker.Touch.ducked(original: 1, applied: 0.3).description == "ducked from 1 to 0.3")
        #expect(FocusWorker.Touch.ducked(original: 0.24, applied: 0.24 * 0.3).description == "ducked from 0.24 to 0.072")
    }
}
