import ArgumentParser
import Testing

@testable import linnet

/// The quick reading of the service's command line (used on the way to the bus name) against
/// ArgumentParser's: what the quick one accepts, it reads as ArgumentParser does; what it is not
/// sure of, it leaves to ArgumentParser.
@Suite struct QuickPlayArgumentsTests {
    static let accepted: [[String]] = [
        [],
        ["song.ogg"],
        ["play", "song.ogg", "Music/"],
        ["--no-resume", "--paused", "--audio-sink", "fakesink sync=true", "--log-level", "error", "/tmp/one.ogg"],
        ["a.ogg", "--paused", "b.ogg", "--enqueue"],
        ["--name", "kitchen", "--new-instance", "--loop", "playlist", "--shuffle", "--volume", "0.5"],
        ["--no-shuffle", "--volume=1.5", "--audio-sink=fakesink sync=true", "--effects-sink", "fakesink"],
        ["--ring-limit", "90s", "--log-fold-window", "5", "--log-level=debug", "http://example.org/stream"],
        ["--focus", "pause-others", "--duck-level", "0", "--resume-within", "86400", "--notify"],
        ["--focus=duck", "--duck-level=1", "--on-route-lost", "keep", "--headphone-volume-cap", "0.4", "x.m3u"],
    ]

    @Test(arguments: accepted)
    func readsWhatArgumentParserReads(_ arguments: [String]) throws {
        let quick = try #require(QuickPlayArguments.parse(arguments), "left to ArgumentParser: \(arguments)")
        let command = try Linnet.parseAsRoot(arguments)
        let play = try #require(command as? Play, "ArgumentParser ran \(type(of: command)) for \(arguments)")
        #expect(quick == play.options)
    }

    static let leftToArgumentParser: [[String]] = [
        ["--help"], ["-h"], ["--version"], ["help"], ["status"], ["alarm", "07:00"], ["song.ogg", "status"],
        ["play", "play"], ["--generate-completion-script", "bash"], ["--bogus"], ["-p"], ["-"], ["--", "-odd.ogg"],
        ["--paused", "--paused"], ["--shuffle", "--no-shuffle"], ["--paused=true"], ["--audio-sink"],
        ["--volume", "-1"], ["--volume", "loud"], ["--volume", "nan"], ["--name="], ["--name", "9lives"],
        ["--name", "a/b"], ["--loop", "forever"], ["--ring-limit", "soon"], ["--log-fold-window", "0"],
        ["--duck-level", "2"], ["--resume-within", "-5"], ["--headphone-volume-cap", "1.5"], ["--focus", "loud"],
    ]

    @Test(arguments: leftToArgumentParser)
    func leavesTheRestToArgumentParser(_ arguments: [String]) {
        #expect(QuickPlayArguments.parse(arguments) == nil)
    }

    @Test func knowsEveryCommandName() {
        let names = Linnet.configuration.subcommands.map { $0.configuration.commandName ?? "" } + ["help"]
        #expect(Set(QuickPlayArguments.commandNames) == Set(names))
    }

    @Test func sharesTheDefaultsWithArgumentParser() throws {
        let play = try #require(try Linnet.parseAsRoot([]) as? Play)
        #expect(play.options == PlayOptions())
    }
}
