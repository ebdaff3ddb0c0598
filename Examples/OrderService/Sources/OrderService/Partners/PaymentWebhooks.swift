import Foundation
import Logging
import ServiceLifecycle

/// The payment provider's webhook, simulated in every process: delivers the confirmation of
/// each payment that is due (`PaymentGateway.latency` after the charge) to its order's checkout
/// as a message. Several processes may deliver the same confirmation: the message's id is the
/// payment's, so the checkout receives it once.
struct PaymentWebhooks: Service {
    let gateway: PaymentGateway
    let checkout: Checkout
    let logger: Logger
    var every: Duration = .milliseconds(100)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await deliverDue()
                try? await Task.sleep(for: every)
            }
        }
    }

    /// Sends the confirmations due now; one that fails is tried again at the next look.
    func deliverDue(at now: Date = Date()) async {
        do {
            for payment in try gateway.dueConfirmations(at: now) {
                try await checkout.confirm(PaymentConfirmation(payment: payment.id), order: payment.order)
                try gateway.markConfirmed(payment.id)
                logger.info("payment confirmed", metadata: ["order": "\(payment.order)", "payment": "\(payment.id)"])
            }
        } catch {
            logger.warning("payment webhook failed", metadata: ["error": "\(error)"])
        }
    }
}
