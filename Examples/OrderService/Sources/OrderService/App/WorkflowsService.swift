import Commands
import ServiceLifecycle

/// Runs the checkout workflows of every process: claims the runs due, and on graceful shutdown
/// stops claiming and lets the runs under way finish or reach their next wait.
struct WorkflowsService: Service {
    let workflows: Workflows

    func run() async throws {
        await cancelWhenGracefulShutdown { await workflows.run() }
        await workflows.invoker.idle()
    }
}
