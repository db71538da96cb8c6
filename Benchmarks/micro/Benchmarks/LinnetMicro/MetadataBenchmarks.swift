import Benchmark
import DBus
import MPRIS

/// Encoding a track's `Metadata` (a panel's GetAll, a TrackChanged signal) and a page of
/// GetTracksMetadata: written straight into the message, against the `DBusValue` tree it
/// replaced, on the same values.
func registerMetadataBenchmarks() {
    let one = sampleMetadata(1)
    let page = (1...20).map(sampleMetadata)
    // A writer that stopped early would be measured cheap: every body must be written whole.
    precondition(DBusMessageWriter.writeScratchBody { one.write(to: &$0) } == nil)
    precondition(DBusMessageWriter.writeScratchBody { $0.append(one.dbusValue) } == nil)
    precondition(DBusMessageWriter.writeScratchBody { $0.append(one.prepared) } == nil)

    // Each with a live connection, as in the daemon (see ``LiveConnection``).
    let withConnection = Benchmark.Configuration(
        setup: { liveConnection = try LiveConnection() },
        teardown: {
            liveConnection?.stop()
            liveConnection = nil
        })

    Benchmark("Metadata, direct write", configuration: withConnection) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DBusMessageWriter.writeScratchBody { one.write(to: &$0) })
        }
    }

    Benchmark("Metadata, through a DBusValue tree", configuration: withConnection) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DBusMessageWriter.writeScratchBody { $0.append(one.dbusValue) })
        }
    }

    Benchmark("GetTracksMetadata(20) body, direct write", configuration: withConnection) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DBusMessageWriter.writeScratchBody { writer in
                writer.appendArray(of: .stringVariantDictionary) { array in
                    for metadata in page { metadata.write(to: &array) }
                }
            })
        }
    }

    // GetTracksMetadata's rows as linnet writes them: each track's map prepared once and kept
    // (a panel paging through the queue), and prepared on every call (rows not asked before).
    let preparedPage = page.map(\.prepared)
    Benchmark("GetTracksMetadata(20) body, kept prepared maps", configuration: withConnection) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DBusMessageWriter.writeScratchBody { writer in
                writer.appendArray(of: .stringVariantDictionary) { array in
                    for map in preparedPage { array.append(map) }
                }
            })
        }
    }

    Benchmark("GetTracksMetadata(20) body, maps prepared per call", configuration: withConnection) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DBusMessageWriter.writeScratchBody { writer in
                writer.appendArray(of: .stringVariantDictionary) { array in
                    for metadata in page { array.append(metadata.prepared) }
                }
            })
        }
    }

    Benchmark("GetTracksMetadata(20) body, through DBusValue trees", configuration: withConnection) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(DBusMessageWriter.writeScratchBody { writer in
                writer.append(.array(.dictionary(key: .string, value: .variant), page.map(\.dbusValue)))
            })
        }
    }
}

/// A fully tagged track, as TagLib reads an album's file.
func sampleMetadata(_ number: Int) -> Metadata {
    var metadata = Metadata(
        trackID: try! TrackID(ObjectPath(validating: "/org/linnet/Track/\(number)")),
        title: "Track \(number) of the Album", artists: ["The Artist"], album: "The Album")
    metadata.length = Microseconds(214_000_000)
    metadata.albumArtists = ["The Artist"]
    metadata.trackNumber = Int32(number)
    metadata.discNumber = 1
    metadata.genres = ["Jazz"]
    metadata.contentCreated = "2019-01-01"
    metadata.artURL = "file:///music/The%20Artist/The%20Album/cover.jpg"
    metadata.url = "file:///music/The%20Artist/The%20Album/\(number)%20Track.ogg"
    return metadata
}

/// The connection of the Metadata benchmark that runs; benchmarks run one at a time.
nonisolated(unsafe) var liveConnection: LiveConnection?
