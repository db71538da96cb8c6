import Foundation

/// The parts of introspection XML that define an interface's contract, normalised so the spec
/// files in dbus/ and what a service introspects can be compared: each method and signal with
/// its argument types, directions, names and argument annotations (the input limits); each property with its type, access, effective
/// EmitsChangedSignal value and optional flag.
public struct IntrospectionModel {
    /// One interface's normalised contract.
    public struct Interface: Equatable, Sendable {
        /// `method Name(in s name, …)` and `signal Name(…)` lines.
        public var members: Set<String> = []
        /// Property name → `type access optional:… emits:…`.
        public var properties: [String: String] = [:]
        var emitsDefault = "true"
    }

    /// Interfaces by name.
    public var interfaces: [String: Interface] = [:]

    /// Reads introspection XML.
    public init(xml: String) {
        var interface: String?
        var member: (kind: String, name: String, arguments: [String])?
        var property: (name: String, description: String, emits: String?, optional: Bool)?
        var insideArgument = false
        for tag in Self.tags(in: xml) {
            let attributes = Self.attributes(of: tag.body)
            switch (tag.name, tag.closing) {
            case ("interface", false):
                interface = attributes["name"]
                if let interface { interfaces[interface] = Interface() }
            case ("interface", true):
                interface = nil
            case ("method", false), ("signal", false):
                member = (tag.name, attributes["name"] ?? "", [])
                if tag.selfClosing { finish(&member, in: interface) }
            case ("method", true), ("signal", true):
                finish(&member, in: interface)
            case ("arg", false):
                let direction = attributes["direction"] ?? (member?.kind == "method" ? "in" : "")
                member?.arguments.append("\(direction) \(attributes["type"] ?? "") \(attributes["name"] ?? "")")
                insideArgument = !tag.selfClosing
            case ("arg", true):
                insideArgument = false
            case ("property", false):
                property = (attributes["name"] ?? "", "\(attributes["type"] ?? "") \(attributes["access"] ?? "")", nil, false)
                if tag.selfClosing { finish(&property, in: interface) }
            case ("property", true):
                finish(&property, in: interface)
            case ("annotation", false):
                let name = attributes["name"] ?? "", value = attributes["value"] ?? ""
                if insideArgument, let last = member?.arguments.indices.last {
                    member?.arguments[last] += " [\(name)=\(value)]"
                } else if property != nil {
                    if name == "org.freedesktop.DBus.Property.EmitsChangedSignal" { property?.emits = value }
                    if name == "org.mpris.MediaPlayer2.property.optional" { property?.optional = value == "true" }
                } else if member == nil, let interface, name == "org.freedesktop.DBus.Property.EmitsChangedSignal" {
                    interfaces[interface]?.emitsDefault = value
                }
            default:
                break
            }
        }
        // Properties take the interface's default when they declare none.
        for (name, var interface) in interfaces {
            for (property, description) in interface.properties where description.hasSuffix(" emits:") {
                interface.properties[property] = description + interface.emitsDefault
            }
            interfaces[name] = interface
        }
    }

    private mutating func finish(_ member: inout (kind: String, name: String, arguments: [String])?, in interface: String?) {
        guard let current = member, let interface else { return }
        interfaces[interface]?.members.insert("\(current.kind) \(current.name)(\(current.arguments.joined(separator: ", ")))")
        member = nil
    }

    private mutating func finish(
        _ property: inout (name: String, description: String, emits: String?, optional: Bool)?, in interface: String?
    ) {
        guard let current = property, let interface else { return }
        interfaces[interface]?.properties[current.name] =
            "\(current.description) optional:\(current.optional) emits:\(current.emits ?? "")"
        property = nil
    }

    private struct Tag {
        let name: String
        let body: Substring
        let closing: Bool
        let selfClosing: Bool
    }

    /// Every element tag in document order (comments and the DOCTYPE are skipped).
    private static func tags(in xml: String) -> [Tag] {
        var tags: [Tag] = []
        var rest = Substring(xml)
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            if rest.hasPrefix("!--") {
                guard let end = rest.range(of: "-->") else { break }
                rest = rest[end.upperBound...]
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { break }
            let body = rest[..<close]
            rest = rest[rest.index(after: close)...]
            if body.hasPrefix("!") || body.hasPrefix("?") { continue }
            let closing = body.hasPrefix("/")
            let selfClosing = body.hasSuffix("/")
            let trimmed = body.drop { $0 == "/" }
            let name = String(trimmed.prefix { !$0.isWhitespace && $0 != "/" })
            tags.append(Tag(name: name, body: trimmed, closing: closing, selfClosing: selfClosing))
        }
        return tags
    }

    private static func attributes(of body: Substring) -> [String: String] {
        var result: [String: String] = [:]
        for match in body.matches(of: /([A-Za-z_:.]+)="([^"]*)"/) {
            result[String(match.1)] = String(match.2)
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        }
        return result
    }
}
