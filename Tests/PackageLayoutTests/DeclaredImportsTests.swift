import Foundation
import Testing

/// Every module a target imports is one its Package.swift entry declares (or a toolchain module),
/// so the layers are the ones written down, not whatever happens to be built alongside.
@Suite struct DeclaredImportsTests {
    /// Modules every target may import: the standard library's, Foundation's and the test runners'.
    static let toolchainModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Glibc", "Synchronization",
        "Testing", "XCTest", "_Concurrency", "PackageDescription",
    ]
    /// The module each product dependency brings.
    static let productModules = [
        "Logging": "Logging", "ArgumentParser": "ArgumentParser", "Subprocess": "Subprocess", "SystemPackage": "SystemPackage",
    ]

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func everyImportIsDeclared() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = Self.targets(in: manifest)
        #expect(targets.count >= 10, "the manifest reader found only \(targets.map(\.name))")
        var undeclared: [String] = []
        for target in targets {
            let imports = try Self.imports(under: Self.packageRoot.appendingPathComponent(target.path))
            for module in imports.sorted() where module != target.name && !Self.toolchainModules.contains(module)
                && !target.dependencies.contains(module) {
                undeclared.append("\(target.name) imports \(module)")
            }
        }
        #expect(undeclared.isEmpty, "declare these in Package.swift: \(undeclared)")
    }

    @Test func thePlayerCoreImportsNothingOfOursAndNoSystemLibrary() throws {
        let imports = try Self.imports(under: Self.packageRoot.appendingPathComponent("Sources/PlayerCore"))
        #expect(imports.subtracting(["Timekeeping"]).isEmpty, "PlayerCore must stay pure: it imports \(imports.sorted())")
    }

    /// The time vocabulary PlayerCore and ClockRules share keeps them pure only if it imports
    /// nothing itself, not even Foundation.
    @Test func theTimeVocabularyImportsNothing() throws {
        let imports = try Self.imports(under: Self.packageRoot.appendingPathComponent("Sources/Timekeeping"))
        #expect(imports.isEmpty, "Timekeeping must import nothing: it imports \(imports.sorted())")
    }

    struct Target {
        var name: String
        var path: String
        var dependencies: Set<String>
    }

    /// The targets of `manifest`: each `.target`, `.executableTarget` and `.testTarget` call with
    /// its name, path and the names it depends on.
    static func targets(in manifest: String) -> [Target] {
        let kinds = [".target(", ".executableTarget(", ".testTarget("]
        var result: [Target] = []
        var rest = Substring(manifest)
        while let start = kinds.compactMap({ rest.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            let kind = rest[start]
            let body = balancedCall(rest[start.upperBound...])
            rest = rest[body.endIndex...]
            let strings = quoted(body)
            guard let name = value(of: "name", in: body) else { continue }
            let isTest = kind == ".testTarget("
            let path = value(of: "path", in: body) ?? (isTest ? "Tests/\(name)" : "Sources/\(name)")
            var dependencies = Set(strings)
            for (product, module) in productModules where body.contains("name: \"\(product)\"") { dependencies.insert(module) }
            result.append(Target(name: name, path: path, dependencies: dependencies))
        }
        return result
    }

    /// The text up to the parenthesis that closes the call just opened.
    private static func balancedCall(_ text: Substring) -> Substring {
        var depth = 1
        var index = text.startIndex
        while index < text.endIndex, depth > 0 {
            if text[index] == "(" { depth += 1 } else if text[index] == ")" { depth -= 1 }
            index = text.index(after: index)
        }
        return text[..<index]
    }

    private static func quoted(_ text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().compactMap { $0.offset % 2 == 1 ? String($0.element) : nil }
    }

    private static func value(of label: String, in body: Substring) -> String? {
        guard let range = body.range(of: "\(label): \"") else { return nil }
        return body[range.upperBound...].prefix { $0 != "\"" }.description
    }

    /// The modules imported by the Swift files under `directory`.
    static func imports(under directory: URL) throws -> Set<String> {
        var modules = Set<String>()
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let importIndex = words.firstIndex(of: "import"), importIndex + 1 < words.count,
                      words[..<importIndex].allSatisfy({ ["@testable", "public", "internal", "package", "private", "fileprivate", "@_exported"].contains($0) })
                else { continue }
                let module = words[importIndex + 1].split(separator: ".").first.map(String.init) ?? ""
                modules.insert(module)
            }
        }
        return modules
    }
}
