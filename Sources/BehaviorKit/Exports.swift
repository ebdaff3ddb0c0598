// `import BehaviorKit` brings the three patterns at once.
@_exported public import Chains
@_exported public import Commands
@_exported public import StateMachines
