public import Commands

extension ShoppingCart {
    /// "Add 2 apples": a command over the cart whose undo takes them out again.
    public func adding(_ item: String, _ count: Int) -> ReceiverCommand<ShoppingCart> {
        ReceiverCommand("Add \(CartScenario.quantity(count, item))", on: self) {
            try $0.add(item, count)
        } undo: {
            try $0.reduce(item, count)
        }
    }

    /// "Reduce 1 apple": a command over the cart whose undo puts them back.
    public func reducing(_ item: String, _ count: Int) -> ReceiverCommand<ShoppingCart> {
        ReceiverCommand("Reduce \(CartScenario.quantity(count, item))", on: self) {
            try $0.reduce(item, count)
        } undo: {
            try $0.add(item, count)
        }
    }
}
