import DBus
import Foundation
import MPRIS

extension BusFuzzer {
    // MARK: Calls

    mutating func hostileCall() -> FuzzCall {
        let roll = Int.random(in: 0..<100, using: &factory.rng)
        let path = MPRISNames.objectPath
        switch roll {
        case 0..<35:
            // A member (known or not) of an MPRIS interface with random arguments.
            let interface = factory.rng.pick(Array(FuzzTargets.methods.keys).sorted())
            return aimed(path: path, interface: interface, noInterface: false)
        case 35..<45:
            let interface = factory.rng.pick(Array(FuzzTargets.methods.keys).sorted())
            return aimed(path: path, interface: interface, noInterface: true)
        case 45..<50:
            return FuzzCall(path: path, interface: factory.rng.pick(FuzzTargets.bogusInterfaces),
                            member: factory.rng.pick(["Play", "Get", "Frobnicate"]), arguments: factory.arguments(),
                            expectedError: .unknownInterface, kind: "unknown-interface")
        case 50..<55:
            let interface = factory.rng.pick(Array(FuzzTargets.methods.keys).sorted())
            let member = factory.rng.pick(Array(FuzzTargets.methods[interface]!.keys).sorted())
            return FuzzCall(path: factory.rng.pick(FuzzTargets.bogusPaths), interface: interface,
                            member: MemberName(rawValue: member)!, arguments: factory.arguments(),
                            expectedError: .unknownObject, kind: "unknown-path")
        case 55..<85:
            return propertiesCall()
        case 85..<92:
            let target: ObjectPath = factory.rng.pick(["/", "/org", "/org/mpris", path] + FuzzTargets.bogusPaths)
            let member: MemberName = factory.rng.chance(0.8) ? "Introspect" : "Introspection"
            let arguments = factory.rng.chance(0.8) ? [] : factory.arguments()
            let expected: ErrorName? = if member != "Introspect" {
                .unknownMethod
            } else if !arguments.isEmpty {
                .invalidArgs
            } else if ["/", "/org", "/org/mpris", path].contains(target) {
                nil
            } else {
                .unknownObject
            }
            return FuzzCall(path: target, interface: .introspectable, member: member, arguments: arguments,
                            expectedError: expected, kind: "introspect")
        default:
            // libdbus answers Peer itself, on any path; any named answer is fine.
            let member: MemberName = factory.rng.pick(["Ping", "GetMachineId", "Pong"])
            return FuzzCall(path: factory.rng.chance(0.5) ? path : factory.objectPath(), interface: .peer,
                            member: member, arguments: factory.rng.chance(0.7) ? [] : factory.arguments(),
                            expectedError: nil, kind: "peer")
        }
    }

    /// A call to `interface` at the MPRIS path: a declared member with random (sometimes right)
    /// arguments, or an undeclared one.
    private mutating func aimed(path: ObjectPath, interface: InterfaceName, noInterface: Bool) -> FuzzCall {
        let declared = FuzzTargets.methods[interface]!
        let known = factory.rng.chance(0.8)
        let member = known
            ? MemberName(rawValue: factory.rng.pick(Array(declared.keys).sorted()))!
            : factory.rng.pick(FuzzTargets.bogusMembers)
        var arguments: [DBusValue]
        if known, factory.rng.chance(0.4), let signature = declared[member.rawValue],
            let types = DBusSignature(rawValue: signature)?.types {
            arguments = types.map { factory.value(of: $0) }
        } else {
            arguments = factory.arguments()
        }
        // Quit with the right signature would end the run; keep it to the wrong-signature case.
        if member == "Quit", arguments.isEmpty { arguments = [.int32(0)] }
        let signature = arguments.map(\.type.signature).joined()
        let expected: ErrorName? = if !known {
            .unknownMethod
        } else if declared[member.rawValue] != signature {
            .invalidArgs
        } else {
            nil
        }
        return FuzzCall(path: path, interface: noInterface ? nil : interface, member: member, arguments: arguments,
                        expectedError: expected, kind: noInterface ? "no-interface" : "member")
    }

    private mutating func propertiesCall() -> FuzzCall {
        let path = MPRISNames.objectPath
        let interfaces = Array(FuzzTargets.properties.keys).sorted()
        let interface = factory.rng.chance(0.9) ? factory.rng.pick(interfaces) : factory.rng.pick(FuzzTargets.bogusInterfaces)
        let declared = FuzzTargets.properties[interface] ?? [:]
        let knownName = factory.rng.chance(0.85) && !declared.isEmpty
        let name = knownName ? factory.rng.pick(Array(declared.keys).sorted()) : factory.rng.pick(["Nope", "", "volume", "Rate "])
        let property = declared[name]
        func make(_ member: MemberName, _ arguments: [DBusValue], _ expected: ErrorName?) -> FuzzCall {
            FuzzCall(path: path, interface: .properties, member: member, arguments: arguments,
                     expectedError: expected, kind: "properties")
        }
        let missing: ErrorName = FuzzTargets.properties[interface] == nil ? .unknownInterface : .unknownProperty
        switch Int.random(in: 0..<10, using: &factory.rng) {
        case 0..<3:
            return make("Get", [.string(interface.rawValue), .string(name)], property == nil ? missing : nil)
        case 3:
            let expected: ErrorName? = FuzzTargets.properties[interface] == nil ? .unknownInterface : nil
            return make("GetAll", [.string(interface.rawValue)], expected)
        case 4..<9:
            // Set with the right type half the time, a random one otherwise.
            let rightType = property.flatMap { try? DBusType(parsing: $0.type) }
            let valueType = (rightType != nil && factory.rng.chance(0.5)) ? rightType! : factory.type()
            let value = factory.value(of: valueType)
            let expected: ErrorName? = if let property {
                !property.writable ? .propertyReadOnly : (valueType != rightType ? .invalidArgs : nil)
            } else {
                missing
            }
            return make("Set", [.string(interface.rawValue), .string(name), .variant(value)], expected)
        default:
            let member: MemberName = factory.rng.pick(["Get", "GetAll", "Set", "Sett"])
            let arguments = factory.arguments()
            let signature = arguments.map(\.type.signature).joined()
            let right = ["Get": "ss", "GetAll": "s", "Set": "ssv"][member.rawValue]
            let expected: ErrorName? = if right == nil {
                .unknownMethod
            } else if right != signature {
                .invalidArgs
            } else {
                nil
            }
            return make(member, arguments, expected)
        }
    }

    /// One valid command with plausible arguments.
    mutating func validCommand() -> FuzzCall {
        let path = MPRISNames.objectPath
        let tracks = factory.knownTracks
        func player(_ member: MemberName, _ arguments: [DBusValue] = []) -> FuzzCall {
            FuzzCall(path: path, interface: MPRISNames.player, member: member, arguments: arguments, expectedError: nil, kind: "valid")
        }
        func trackList(_ member: MemberName, _ arguments: [DBusValue]) -> FuzzCall {
            FuzzCall(path: path, interface: MPRISNames.trackList, member: member, arguments: arguments, expectedError: nil, kind: "valid")
        }
        func set(_ name: String, _ value: DBusValue) -> FuzzCall {
            FuzzCall(path: path, interface: .properties, member: "Set",
                     arguments: [.string(MPRISNames.player.rawValue), .string(name), .variant(value)],
                     expectedError: nil, kind: "valid")
        }
        let someTrack: ObjectPath = tracks.isEmpty ? TrackID.noTrack.path : factory.rng.pick(tracks)
        let file = factory.rng.chance(0.8) ? factory.rng.pick(files) : factory.rng.pick(bogusFiles)
        let uri = URL(fileURLWithPath: file).absoluteString
        switch Int.random(in: 0..<19, using: &factory.rng) {
        case 0: return player("Play")
        case 1: return player("Pause")
        case 2: return player("PlayPause")
        case 3: return player("Stop")
        case 4: return player("Next")
        case 5: return player("Previous")
        case 6: return player("Seek", [.int64(factory.rng.pick([-500_000, 300_000, 1_000_000, .max, .min, 0]))])
        case 7: return player("SetPosition", [.objectPath(someTrack), .int64(Int64.random(in: -1...2_500_000, using: &factory.rng))])
        case 8: return player("OpenUri", [.string(uri)])
        case 9, 10:
            let after: ObjectPath = factory.rng.chance(0.3) ? TrackID.noTrack.path : someTrack
            return trackList("AddTrack", [.string(uri), .objectPath(after), .boolean(factory.rng.chance(0.3))])
        case 11: return trackList("RemoveTrack", [.objectPath(someTrack)])
        case 12: return trackList("GoTo", [.objectPath(someTrack)])
        case 13: return trackList("GetTracksMetadata", [.array(.objectPath, tracks.map { .objectPath($0) })])
        case 14: return set("Volume", .double(Double.random(in: 0...1.5, using: &factory.rng)))
        case 15: return set("Rate", .double(factory.rng.pick([0.5, 1, 1.5, 2])))
        case 16: return set("LoopStatus", .string(factory.rng.pick(["None", "Track", "Playlist"])))
        case 17: return set("Shuffle", .boolean(factory.rng.chance(0.5)))
        default:
            let none: ObjectPath = "/org/linnet/playlist/none"
            let id = playlistIDs.isEmpty ? none : factory.rng.pick(playlistIDs)
            return FuzzCall(path: path, interface: MPRISNames.playlists, member: "ActivatePlaylist",
                            arguments: [.objectPath(id)], expectedError: nil, kind: "valid")
        }
    }
}
