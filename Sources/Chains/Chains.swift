// The Chains module: handler pipelines and tiered lookups.
