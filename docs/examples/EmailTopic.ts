// The example of docs/EmailTopic.md. Written by `npm run docs` from the schema in provider/email/topic.ts of the pulumi-svc repository: edit its `example` there.
import * as svc from "pulumi-svc";

const news = new svc.EmailTopic("news", {
  name: "Product news",
  description: "A monthly letter about what is new.",
});

export const topicId = news.topicId;
