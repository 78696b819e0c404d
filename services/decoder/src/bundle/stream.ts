// MQTT and CoAP through the bundle's nginx: its stream module (TCP and UDP proxying) in front of
// the decoders' brokers and CoAP servers, so nginx stays the only published service. The stream
// context sits beside http, not inside it, so the bundle ships nginx's main file with both.
import { DECODER_COAP_PORT, NGINX_CERT_DIR, NGINX_MQTTS_PORT, NGINX_STREAM_DIR } from "./render.ts";

/** nginx.conf: the image's own defaults (conf.d inside http) plus a stream context that includes the stream blocks */
export function renderNginxMain(): string {
  return `# SatPayload Studio: nginx's main file, mounted over the image's own because MQTT and CoAP
# need the stream context, which only the main file can open.
user nginx;
worker_processes auto;
error_log /var/log/nginx/error.log notice;
pid /var/run/nginx.pid;

events {
    worker_connections 1024;
}

http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    keepalive_timeout 65;
    include /etc/nginx/conf.d/*.conf;
}

stream {
    include ${NGINX_STREAM_DIR}/*.conf;
}
`;
}

/**
 * The stream server blocks; `mqtt` and `coap` are the decoders' host:port (empty: that transport is off).
 * MQTT is TLS here like HTTPS (a device's key is its password); CoAP has no DTLS in nginx, so it
 * passes as plain UDP.
 */
export function renderNginxStream(mqtt: string[], coap: string[]): string {
  const parts = ["# SatPayload Studio: MQTT and CoAP ingest through nginx's stream module."];
  if (mqtt.length)
    parts.push(`# MQTT: TLS ends here; each connection goes to the decoder with the fewest, and stays there
upstream satpayload_mqtt {
    least_conn;
${mqtt.map((u) => `    server ${u} max_fails=3 fail_timeout=10s;`).join("\n")}
}

server {
    listen ${NGINX_MQTTS_PORT} ssl;
    ssl_certificate ${NGINX_CERT_DIR}/tls.crt;
    ssl_certificate_key ${NGINX_CERT_DIR}/tls.key;
    ssl_protocols TLSv1.2 TLSv1.3;
    proxy_pass satpayload_mqtt;
    proxy_connect_timeout 5s;
    # MQTT keeps its connection open; keep-alive pings (60 s in MQTT.js, mosquitto) pass well within this
    proxy_timeout 10m;
}`);
  if (coap.length)
    parts.push(`# CoAP: one client address always reaches the same decoder, so a retransmission finds its exchange
upstream satpayload_coap {
    hash $remote_addr consistent;
${coap.map((u) => `    server ${u};`).join("\n")}
}

server {
    listen ${DECODER_COAP_PORT} udp;
    proxy_pass satpayload_coap;
    # no proxy_responses: one client port may have many requests in flight (a gateway, the load
    # generator), and every answer must find its way back; a binding ends after a minute of silence
    proxy_timeout 60s;
}`);
  return `${parts.join("\n\n")}\n`;
}
