import DBus
import Testing

/// `number(below:)` reads back exactly the children `appending(number:)` spells.
@Suite struct ObjectPathNumberTests {
    @Test func aNumberedChildReadsBack() {
        let parent: ObjectPath = "/org/example/track"
        for number: UInt64 in [0, 7, 42, 1_234_567, .max] {
            #expect(parent.appending(number: number).number(below: parent) == number)
        }
        #expect(ObjectPath("/").appending(number: 9).number(below: "/") == 9)
    }

    /// The bytes of a received path (a call's arguments read in place) read as the path does.
    @Test func pathBytesReadAsThePath() {
        let parent: ObjectPath = "/org/example/track"
        for text in ["/org/example/track/42", "/org/example/track/042", "/org/example/tracks/4", "/org/example/track"] {
            var bytes = Array(text.utf8)
            let number = bytes.withUnsafeMutableBufferPointer { ObjectPath.number(ofPath: UnsafeBufferPointer($0), below: parent) }
            #expect(number == ObjectPath(rawValue: text)?.number(below: parent), "\(text)")
        }
    }

    @Test func otherPathsAreNotNumberedChildren() {
        let parent: ObjectPath = "/org/example/track"
        for text in ["/org/example/track", "/org/example/track/042", "/org/example/track/4a", "/org/example/track/x/4",
                     "/org/example/trackx/4", "/org/example/tracks/4", "/org/example/4", "/org/example/track/",
                     "/org/example/track/18446744073709551616", "/org/example/track/-1"] {
            guard let path = ObjectPath(rawValue: text) else { continue }
            #expect(path.number(below: parent) == nil, "\(text)")
        }
        #expect(ObjectPath("/").number(below: "/") == nil)
        #expect(ObjectPath("/a/5").number(below: "/") == nil)
    }
}
