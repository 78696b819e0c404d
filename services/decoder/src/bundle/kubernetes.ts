// The deployment for fleets that outgrow one host: Kubernetes manifests for the decoder tier (a
// StatefulSet, because each replica owns a SQLite buffer that must outlive its pod), its Service,
// an Ingress terminating TLS, a HorizontalPodAutoscaler, the credentials Secret and, without an
// external Mobius/ACME, the embedded CSE on a network only the decoders reach.
import { stringify } from "yaml";
import {
  CSE_PORT,
  DECODER_COAP_PORT,
  DECODER_MQTT_PORT,
  DECODER_PORT,
  decoderArgs,
  KEYS_MOUNT,
  type BundleOptions,
} from "./render.ts";

const APP = "satpayload";
// Kubernetes reads YAML 1.1, where a bare on/off/yes/no is a boolean: quote such strings
const YAML_1_1 = { version: "1.1" } as const;
const labels = (component: string) => ({ "app.kubernetes.io/name": APP, "app.kubernetes.io/component": component });
const probe = (initialDelaySeconds: number) => ({
  httpGet: { path: "/health", port: "http" },
  initialDelaySeconds,
  periodSeconds: 10,
  timeoutSeconds: 3,
});
// the image's user (node, uid 1000) owns /data; nothing in the pod needs to be root
const podSecurity = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  seccompProfile: { type: "RuntimeDefault" },
};
const containerSecurity = { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } };

export interface ManifestOptions extends BundleOptions {
  /** the keys file's content, shipped as the Secret (hashes and webhook secrets) */
  keysJson: string;
  /** layout file name → content, shipped as a ConfigMap */
  layouts: [string, string][];
}

export function renderManifests(o: ManifestOptions): [string, string][] {
  const image = `satpayload-studio:${o.version}`;
  const cse = o.cseUrl ?? `http://cse:${CSE_PORT}/Mobius`;
  const keysDir = KEYS_MOUNT.slice(0, KEYS_MOUNT.lastIndexOf("/"));
  const decoder = {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "decoder", labels: labels("decoder") },
    spec: {
      serviceName: "decoder-pods",
      replicas: o.replicas,
      // pods start and stop in any order: each owns only its own buffer
      podManagementPolicy: "Parallel",
      selector: { matchLabels: labels("decoder") },
      // a scaled-down replica's buffer stays; scaled up again, it forwards what it still holds
      persistentVolumeClaimRetentionPolicy: { whenDeleted: "Retain", whenScaled: "Retain" },
      template: {
        metadata: { labels: labels("decoder") },
        spec: {
          securityContext: podSecurity,
          terminationGracePeriodSeconds: 30,
          containers: [
            {
              name: "decoder",
              image,
              command: ["node", "--import", "tsx", "services/decoder/main.ts"],
              args: [...decoderArgs(o, cse), "--data-dir", "/data", "--instance", "$(POD_NAME)"],
              env: [{ name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } }],
              ports: [
                { name: "http", containerPort: DECODER_PORT },
                ...(o.mqttPort !== undefined
                  ? [{ name: "mqtt", containerPort: DECODER_MQTT_PORT, protocol: "TCP" }]
                  : []),
                ...(o.coapPort !== undefined
                  ? [{ name: "coap", containerPort: DECODER_COAP_PORT, protocol: "UDP" }]
                  : []),
              ],
              readinessProbe: probe(5),
              livenessProbe: probe(20),
              resources: { requests: { cpu: "250m", memory: "256Mi" }, limits: { memory: "1Gi" } },
              securityContext: containerSecurity,
              volumeMounts: [
                { name: "buffer", mountPath: "/data" },
                { name: "keys", mountPath: keysDir, readOnly: true },
                ...(o.layouts.length ? [{ name: "layouts", mountPath: "/layouts", readOnly: true }] : []),
              ],
            },
          ],
          volumes: [
            { name: "keys", secret: { secretName: "satpayload-keys", defaultMode: 0o400 } },
            ...(o.layouts.length ? [{ name: "layouts", configMap: { name: "satpayload-layouts" } }] : []),
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: "buffer" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "2Gi" } } },
        },
      ],
    },
  };
  const services: object[] = [
    // the StatefulSet's governing Service: stable names decoder-0.decoder-pods, …
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "decoder-pods", labels: labels("decoder") },
      spec: {
        clusterIP: "None",
        selector: labels("decoder"),
        ports: [{ name: "http", port: DECODER_PORT, targetPort: "http" }],
      },
    },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "decoder", labels: labels("decoder") },
      spec: { selector: labels("decoder"), ports: [{ name: "http", port: 80, targetPort: "http" }] },
    },
  ];
  const ingestPorts = [
    ...(o.mqttPort !== undefined ? [{ name: "mqtt", port: o.mqttPort, targetPort: "mqtt", protocol: "TCP" }] : []),
    ...(o.coapPort !== undefined ? [{ name: "coap", port: o.coapPort, targetPort: "coap", protocol: "UDP" }] : []),
  ];
  // an Ingress carries HTTP only: MQTT and CoAP get a load balancer of their own; ClientIP affinity
  // keeps a device on one pod, so a CoAP retransmission reaches the pod that holds its exchange
  if (ingestPorts.length)
    services.push({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: "decoder-ingest", labels: labels("decoder") },
      spec: { type: "LoadBalancer", selector: labels("decoder"), sessionAffinity: "ClientIP", ports: ingestPorts },
    });
  const ingress = {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: {
      name: "decoder",
      labels: labels("decoder"),
      annotations: {
        // ingress-nginx: the largest base64 envelope, HTTPS only, the event stream unbuffered
        "nginx.ingress.kubernetes.io/proxy-body-size": String(Math.ceil(o.bodyLimit / 3) * 4 + 4096),
        "nginx.ingress.kubernetes.io/ssl-redirect": "true",
        "nginx.ingress.kubernetes.io/force-ssl-redirect": "true",
        "nginx.ingress.kubernetes.io/proxy-buffering": "off",
        "nginx.ingress.kubernetes.io/load-balance": "ewma",
      },
    },
    spec: {
      tls: [{ hosts: ["satpayload.example.com"], secretName: "satpayload-tls" }],
      rules: [
        {
          host: "satpayload.example.com",
          http: {
            paths: [
              { path: "/", pathType: "Prefix", backend: { service: { name: "decoder", port: { name: "http" } } } },
            ],
          },
        },
      ],
    },
  };
  const hpa = {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "decoder", labels: labels("decoder") },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "StatefulSet", name: "decoder" },
      minReplicas: o.replicas,
      maxReplicas: Math.max(o.replicas * 4, o.replicas + 1),
      metrics: [
        { type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } },
      ],
      // scale down slowly: a removed replica's buffer waits for it to come back
      behavior: {
        scaleDown: { stabilizationWindowSeconds: 600, policies: [{ type: "Pods", value: 1, periodSeconds: 300 }] },
      },
    },
  };
  const secret = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: "satpayload-keys", labels: labels("decoder") },
    type: "Opaque",
    stringData: { "keys.json": o.keysJson },
  };
  const files: [string, string][] = [
    ["k8s/decoder-statefulset.yaml", stringify(decoder, YAML_1_1)],
    ["k8s/decoder-services.yaml", services.map((x) => stringify(x, YAML_1_1)).join("---\n")],
    ["k8s/decoder-ingress.yaml", stringify(ingress, YAML_1_1)],
    ["k8s/decoder-hpa.yaml", stringify(hpa, YAML_1_1)],
    ["k8s/keys-secret.yaml", stringify(secret, YAML_1_1)],
  ];
  if (o.layouts.length)
    files.push([
      "k8s/layouts-configmap.yaml",
      stringify(
        {
          apiVersion: "v1",
          kind: "ConfigMap",
          metadata: { name: "satpayload-layouts", labels: labels("decoder") },
          data: Object.fromEntries(o.layouts),
        },
        YAML_1_1,
      ),
    ]);
  if (!o.cseUrl) files.push(["k8s/cse.yaml", renderCse(image)]);
  return files;
}

function renderCse(image: string): string {
  const cse = {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "cse", labels: labels("cse") },
    spec: {
      replicas: 1,
      // one SQLite file: never two CSE pods on it, not even during a rollout
      strategy: { type: "Recreate" },
      selector: { matchLabels: labels("cse") },
      template: {
        metadata: { labels: labels("cse") },
        spec: {
          securityContext: podSecurity,
          containers: [
            {
              name: "cse",
              image,
              command: ["node", "--import", "tsx", "services/cse/main.ts"],
              args: ["--host", "0.0.0.0", "--port", String(CSE_PORT), "--data-dir", "/data"],
              ports: [{ name: "onem2m", containerPort: CSE_PORT }],
              readinessProbe: { tcpSocket: { port: "onem2m" }, periodSeconds: 10 },
              resources: { requests: { cpu: "250m", memory: "256Mi" }, limits: { memory: "1Gi" } },
              securityContext: containerSecurity,
              volumeMounts: [{ name: "data", mountPath: "/data" }],
            },
          ],
          volumes: [{ name: "data", persistentVolumeClaim: { claimName: "cse-data" } }],
        },
      },
    },
  };
  const pvc = {
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: "cse-data", labels: labels("cse") },
    spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "10Gi" } } },
  };
  const service = {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "cse", labels: labels("cse") },
    spec: { selector: labels("cse"), ports: [{ name: "onem2m", port: CSE_PORT, targetPort: "onem2m" }] },
  };
  // the CSE has no credentials of its own: only the decoders may reach it
  const policy = {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "cse-from-decoders-only", labels: labels("cse") },
    spec: {
      podSelector: { matchLabels: labels("cse") },
      policyTypes: ["Ingress"],
      ingress: [
        { from: [{ podSelector: { matchLabels: labels("decoder") } }], ports: [{ protocol: "TCP", port: CSE_PORT }] },
      ],
    },
  };
  return [cse, pvc, service, policy].map((x) => stringify(x, YAML_1_1)).join("---\n");
}
