// The public download of the server's TLS certificate (never its key), for agents to pin: the console's
// agent setup links to it and tells where Monit keeps it.
export const CERTIFICATE_PATH = '/tls/certificate.pem'

/** Where the agent setup lines tell Monit to keep its copy (Monit's cacertificatefile). */
export const AGENT_CERTIFICATE_FILE = '/etc/monit/overseer.pem'
