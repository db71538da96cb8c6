public import Foundation
import Synchronization

/// Serves one body over HTTP/1.0 on 127.0.0.1 with plain POSIX sockets, so stream playback is
/// tested without a network — including streams that break.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// What the server does with each request.
    public enum Behaviour: Sendable {
        /// Sends the whole body and closes.
        case complete
        /// Sends the first `bytes` of the body as a live stream (no length, like internet
        /// radio) and closes the connection.
        case closeAfter(bytes: Int)
        /// Sends the first `bytes` of the body as a live stream, then nothing more while keeping
        /// the connection open (until ``stop()``).
        case stallAfter(bytes: Int)
        /// Declares the whole body's Content-Length, sends only its first `bytes` and closes the
        /// connection: a download cut short, which souphttpsrc reports as an error.
        case cutShort(bytes: Int)
    }

    /// The port the server listens on.
    public let port: UInt16
    private let socket: Int32
    private let requests = Mutex(0)
    private let stalled = Mutex<[Int32]>([])

    /// Starts serving `body` as `contentType`, behaving as `behaviour` says.
    public init(body: Data, contentType: String, behaviour: Behaviour = .complete) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestSupportError("socket failed") }
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(socket, 8) == 0 else { throw TestSupportError("bind/listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in serve(body: body, contentType: contentType, behaviour: behaviour) }
        thread.start()
    }

    /// Closing the listening socket ends the accept loop; stalled connections are closed too.
    public func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
        for client in stalled.withLock({ clients in defer { clients = [] }; return clients }) {
            close(client)
        }
    }

    /// How many requests arrived so far.
    public var requestCount: Int { requests.withLock { $0 } }

    /// The stream's URI.
    public var uri: String { "http://127.0.0.1:\(port)/stream" }

    private func serve(body: Data, contentType: String, behaviour: Behaviour) {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else { return }
            requests.withLock { $0 += 1 }
            var request = [UInt8](repeating: 0, count: 4096)
            _ = read(client, &request, request.count)
            var response: Data
            switch behaviour {
            case .complete:
                response = Data("HTTP/1.0 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
                response.append(body)
            case .closeAfter(let bytes), .stallAfter(let bytes):
                response = Data("HTTP/1.0 200 OK\r\nContent-Type: \(contentType)\r\nConnection: close\r\n\r\n".utf8)
                response.append(body.prefix(bytes))
            case .cutShort(let bytes):
                response = Data("HTTP/1.0 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
                response.append(body.prefix(bytes))
            }
            response.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    // send with MSG_NOSIGNAL: a player that hangs up must not SIGPIPE the test process.
                    let written = send(client, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    if written <= 0 { break }
                    offset += written
                }
            }
            if case .stallAfter = behaviour {
                stalled.withLock { $0.append(client) }
            } else {
                close(client)
            }
        }
    }
}
