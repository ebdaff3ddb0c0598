import Chains
import Testing

/// The samples of `AsyncMiddleware.md`, as written there: they must compile and do what their
/// comments say. Change both together.
struct AsyncMiddlewareDocSamplesTests {
    struct Request: Sendable {
        var path: String
        var headers: [String: String] = [:]
        var user: String?
    }

    struct Response: Sendable, Equatable {
        var status: Int
        var body: String = ""
        var headers: [String: String] = [:]
    }

    actor Users {
        private let tokens = ["secret": "ada"]
        func user(for token: String) -> String? { tokens[token] }
    }

    struct Authenticate: AsyncHandler {
        let users: Users

        func handle(_ request: Request, next: (Request) async throws -> Response) async throws -> Response {
            guard let token = request.headers["Authorization"], let user = await users.user(for: token) else {
                return Response(status: 401, body: "who are you?")
            }
            var request = request
            request.user = user
            return try await next(request)
        }
    }

    struct ServerName: AsyncHandler {
        func handle(_ request: Request, next: (Request) async throws -> Response) async throws -> Response {
            var response = try await next(request)
            response.headers["Server"] = "BehaviorKit"
            return response
        }
    }

    let router: @Sendable (Request) async throws -> Response = { request in
        Response(status: 200, body: "hello \(request.user ?? "?"), this is \(request.path)")
    }

    struct RetryOnce: AsyncHandler {
        func handle(_ request: Request, next: (Request) async throws -> Response) async throws -> Response {
            do { return try await next(request) } catch { return try await next(request) }  // the rest runs again
        }
    }

    @Test func callingNextTwiceRunsTheRestTwice() async throws {
        let calls = Calls()
        let flaky: @Sendable (Request) async throws -> Response = { request in
            if await calls.next() == 1 { throw CancellationError() }
            return Response(status: 200, body: request.path)
        }
        let retrying = AsyncChain(from: Request.self, to: Response.self) {
            RetryOnce()
            ServerName()
        }
        #expect(
            try await retrying.handle(Request(path: "/"), terminal: flaky)
                == Response(status: 200, body: "/", headers: ["Server": "BehaviorKit"]))
        #expect(await calls.count == 2)
    }

    actor Calls {
        var count = 0
        func next() -> Int {
            count += 1
            return count
        }
    }

    @Test func composeIt() async throws {
        let users = Users()
        let middleware = AsyncChain(from: Request.self, to: Response.self) {
            ServerName()
            Authenticate(users: users)
        }
        #expect(
            try await middleware.handle(
                Request(path: "/orders", headers: ["Authorization": "secret"]), terminal: router)
                == Response(status: 200, body: "hello ada, this is /orders", headers: ["Server": "BehaviorKit"]))
        #expect(
            try await middleware.handle(Request(path: "/orders"), terminal: router)
                == Response(status: 401, body: "who are you?", headers: ["Server": "BehaviorKit"]))

        let linked = ServerName() |> Authenticate(users: users)
        #expect(try await linked.handle(Request(path: "/"), terminal: router).status == 401)
    }

    @Test func configuredAtRunTime() async throws {
        var configured = AsyncHandlerList<Request, Response>()
        configured.append(ServerName())
        configured.append(
            AsyncClosureHandler { request, next in
                request.path.hasPrefix("/admin") ? Response(status: 403) : try await next(request)
            })
        #expect(try await configured.handle(Request(path: "/admin"), terminal: router).status == 403)
        #expect(try await configured.handle(Request(path: "/"), terminal: router).headers["Server"] == "BehaviorKit")
    }

    @Test func mixInSynchronousSteps() async throws {
        let signUp = AsyncPipeline(of: String.self) {
            DigitNormalizer()
            LengthValidator(exactly: 11)
            AsyncClosureHandler { phone, next in
                await Task.yield()  // a call to the accounts service, say
                return try await next(phone)
            }
            MaskFormatter("+X (XXX) XXX XX-XX")
        }
        #expect(try await signUp.run("７９６３４４８０２０９") == "+7 (963) 448 02-09")
    }
}
