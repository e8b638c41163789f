"""Yōkai Quest's resolvers as they were published with its rules data 1.0.0, kept unchanged.

Verification re-runs every action of a session under the rules its campaign pinned. Campaigns pinned to 1.0.0 were
played by these resolvers (no Yōkai phase, any one victory bullet, no verdicts), so their sessions re-derive only by
them; the package's own resolvers apply to 1.1.0 and later. Nothing here changes: a fix belongs in a new version.
"""
