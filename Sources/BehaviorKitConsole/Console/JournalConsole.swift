public import Commands
import HTTPTypes
public import Hummingbird

/// A web console for durable work: a journal's queues (pause and resume them), workers, records
/// (filtered, paged), a record's steps and attempts, workflow runs with their steps, sleeps,
/// waits, children and messages, and durable machines by state with a key's history; cancel and
/// retry from the page. Server-rendered HTML with its own stylesheet: nothing loads from
/// elsewhere, so it works offline.
///
/// Mount it in your Hummingbird app, behind your own authentication middleware, as you would
/// Sidekiq Web or Oban Web:
///
/// ```swift
/// let console = JournalConsole(journal: journal, machines: [ConsoleMachine(parcels)])
/// let ops = router.group("ops").add(middleware: MyAdminAuthentication())
/// console.addRoutes(to: ops)
/// ```
///
/// Safe by default: every key, output and error is escaped; actions are `POST`s that carry the
/// console's CSRF token (refused with 403 without it); ``Options/readOnly`` removes the action
/// forms and refuses every action; errors shown or logged never carry a URL's password or a
/// string listed in ``Options/secrets``.
public struct JournalConsole: Sendable {
    /// The journal the console reads and acts on.
    public let journal: any CommandJournalManagement
    /// The durable machines it shows.
    public let machines: [ConsoleMachine]
    /// How it behaves.
    public let options: Options
    /// The token every action form carries; an action without it is refused.
    let csrfToken: String
    let redaction: Redaction

    /// A console on `journal` and `machines`.
    public init(journal: any CommandJournalManagement, machines: [ConsoleMachine] = [], options: Options = Options()) {
        self.journal = journal
        self.machines = machines
        self.options = options
        self.csrfToken = ConsoleSecret.random()
        self.redaction = Redaction(secrets: options.secrets)
    }

    /// Adds the console's pages, stylesheet and actions to `router` (a router, or a group with
    /// your middleware). Its pages link to each other relatively, so that it works under any
    /// path: the overview is the group's own path (`/ops/`), the others beside it (`/ops/records`).
    public func addRoutes<Context: RequestContext>(to router: some RouterMethods<Context>) {
        router.get("") { request, context in
            let path = request.uri.path
            guard path.hasSuffix("/") else {
                let query = request.uri.query.map { "?" + $0 } ?? ""
                return Response.redirect(to: path + "/" + query, type: .found)
            }
            return await page(request, context) { try await OverviewPage.render(self, $0) }
        }
        let pages: [(path: String, render: @Sendable (JournalConsole, ConsoleRequest) async throws -> ConsolePage)] = [
            ("records", RecordsPage.render), ("record", RecordPage.render), ("workflows", WorkflowsPage.render),
            ("workflow", WorkflowPage.render), ("workers", WorkersPage.render), ("machines", MachinesPage.render),
            ("machine", MachinePage.render),
        ]
        for (path, render) in pages {
            router.get(RouterPath(path)) { request, context in
                await page(request, context) { try await render(self, $0) }
            }
        }
        router.get("console.css") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/css; charset=utf-8"
            headers[.cacheControl] = "max-age=3600"
            return Response(
                status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: ConsoleStyle.css)))
        }
        for action in ConsoleAction.allCases {
            router.post(RouterPath(action.rawValue)) { request, context in
                await perform(action, request, context)
            }
        }
    }
}
