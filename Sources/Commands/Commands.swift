// The Commands module: commands with execute and undo, undo history, transactions, invokers.
