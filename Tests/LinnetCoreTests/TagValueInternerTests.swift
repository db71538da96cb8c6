@testable import LinnetCore
import Testing

/// Repeated tag values share one storage; the table stays bounded and never changes a value.
@Suite struct TagValueInternerTests {
    private func storage(_ string: String) -> UnsafeRawPointer? {
        var copy = string
        return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func equalValuesReadSeparatelyShareOneStorage() {
        let interner = TagValueInterner()
        let first = interner.string(String("The Album With A Long Name".reversed().reversed()))
        let second = interner.string(String("The Album With A Long Name".reversed().reversed()))
        #expect(first == second)
        #expect(storage(first!) == storage(second!), "the second is the first's storage")
        let lists = (0..<2).map { _ in interner.list([String("Some Band Name Here".reversed().reversed())]) }
        #expect(lists[0] == lists[1])
        #expect(lists[0].withUnsafeBufferPointer { $0.baseAddress } == lists[1].withUnsafeBufferPointer { $0.baseAddress })
        #expect(interner.string(nil) == nil && interner.list([]) == [])
    }

    @Test func pastItsCapacityTheTableStartsOverAndValuesStayTheSame() {
        let interner = TagValueInterner()
        for round in 0..<2 {
            for index in 0..<(TagValueInterner.capacity + 10) {
                let value = "a long enough tag value \(index)"
                #expect(interner.string(value) == value, "round \(round) value \(index)")
            }
        }
    }
}
