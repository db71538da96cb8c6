import DBus
import Testing

/// The text form of a match rule, which the bus parses: every field quoted, and a single quote
/// inside an argument closed, escaped and reopened (the D-Bus specification's quoting).
@Suite struct MatchRuleTextTests {
    @Test func fieldsAreQuotedInOrder() {
        let rule = MatchRule(interface: "org.example.I", member: "Changed", arguments: [1: "b", 0: "a"])
        #expect(rule.description == "type='signal',interface='org.example.I',member='Changed',arg0='a',arg1='b'")
    }

    @Test(arguments: [
        ("it's", #"it'\''s"#),
        ("'", #"'\''"#),
        ("''", #"'\'''\''"#),
        ("no quote, ünïcode", "no quote, ünïcode"),
        ("", ""),
    ])
    func singleQuotesInArgumentsAreEscaped(_ value: String, _ escaped: String) {
        #expect(MatchRule(arguments: [0: value]).description == "type='signal',arg0='\(escaped)'")
    }
}
