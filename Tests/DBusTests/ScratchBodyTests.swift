import DBus
import Testing

/// `writeScratchBody` marshals like a reply and reports the writer's problems.
@Suite struct ScratchBodyTests {
    @Test func aWrittenBodyReadsBackAsWritten() throws {
        let values = try DBusMessageWriter.scratchBodyValues { writer in
            writer.append("abc")
            writer.append(UInt32(7))
        }
        #expect(values == [.string("abc"), .uint32(7)])
        #expect(DBusMessageWriter.writeScratchBody { $0.append("abc") } == nil)
    }

    @Test func aStringWithNULStopsTheWriting() {
        let problem = DBusMessageWriter.writeScratchBody { writer in
            writer.append("a\u{0}b")
        }
        #expect(problem?.name == .invalidArgs)
    }
}
