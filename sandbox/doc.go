// Package sandbox is the second wall under every process Workbench starts
// for the agent (H16): what the permission rules let through still cannot
// write outside the workspace, read the person's credentials or reach the
// network unless the settings open it.
//
// A Sandbox turns a Policy (what may be written, what is read-only even
// inside the workspace, what is hidden, which network) into a rewrite of an
// *exec.Cmd before it starts (Sandbox.Wrap). How a command is confined is a
// Backend's business, so another operating system can bring its own; on
// Linux the workbench binary re-executes itself as a launcher (the hidden
// sub-command Subcommand, dispatched by Dispatch at the very top of main)
// that enters new user, mount and network namespaces, makes the protected
// paths read-only, hides the denied ones, applies Landlock and then execs
// the command, so every child, grandchild and double fork stays confined.
//
// The package imports nothing else of Workbench; the session hands it the
// policy and, for sandbox.allowedDomains, the dialer that applies WebFetch's
// egress checks.
package sandbox
