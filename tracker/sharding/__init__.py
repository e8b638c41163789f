"""Which PostgreSQL server holds a campaign: the placement table, the router of a request to its shard, and
moving a campaign between shards under writes."""
